package io.github.flinkinfer.operators.kinds;

import java.io.Serializable;

/** One value column of a kind's result: its name and type (as SQL's {@code OUTPUT} spells them). */
public record ResultColumn(String name, Type type) implements Serializable {
    /** What a column holds, with its SQL spelling. */
    public enum Type {
        FLOAT_ARRAY("ARRAY<FLOAT>"),
        STRING("STRING"),
        FLOAT("FLOAT"),
        INT("INT"),
        BOOLEAN("BOOLEAN");

        public final String sql;

        Type(String sql) {
            this.sql = sql;
        }
    }

    @Override
    public String toString() {
        return name + " " + type.sql;
    }
}

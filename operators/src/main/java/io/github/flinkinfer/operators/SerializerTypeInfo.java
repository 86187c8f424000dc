package io.github.flinkinfer.operators;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * The type information of a field written by one serializer of ours that keeps no configuration
 * ({@link VectorSerializer}, {@link StringBlockSerializer}): what their {@code @TypeInfo} factories
 * return. Equal where the serializer is the same.
 */
public class SerializerTypeInfo<T> extends TypeInformation<T> {
    private final Class<T> type;
    private final TypeSerializer<T> serializer;
    private final String name;

    protected SerializerTypeInfo(Class<T> type, TypeSerializer<T> serializer, String name) {
        this.type = type;
        this.serializer = serializer;
        this.name = name;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    @Override
    public String toString() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SerializerTypeInfo<?> other && other.serializer.equals(serializer);
    }

    @Override
    public int hashCode() {
        return serializer.getClass().hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof SerializerTypeInfo<?>;
    }
}

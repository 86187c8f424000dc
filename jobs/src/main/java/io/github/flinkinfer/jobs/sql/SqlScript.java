package io.github.flinkinfer.jobs.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a SQL script into statements: on {@code ;} outside quotes and comments, and outside an
 * {@code EXECUTE STATEMENT SET BEGIN ... END} block (its INSERTs run as one job).
 */
public final class SqlScript {
    private static final Pattern SET =
            Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'([^']*)'\\s*");
    private static final Pattern SET_BEGIN =
            Pattern.compile("(?is)\\s*EXECUTE\\s+STATEMENT\\s+SET\\s+BEGIN\\b.*");
    private static final Pattern SET_END = Pattern.compile("(?is).*\\bEND\\s*");

    private SqlScript() {}

    public static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int n = script.length();
        for (int i = 0; i < n; i++) {
            char c = script.charAt(i);
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                while (i < n && script.charAt(i) != '\n') {
                    i++;
                }
                cur.append('\n');
            } else if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 1;
                cur.append(' ');
            } else if (c == '\'' || c == '"' || c == '`') {
                int j = i + 1;
                while (j < n && !(script.charAt(j) == c
                        && (j + 1 >= n || script.charAt(j + 1) != c))) {
                    j += script.charAt(j) == c ? 2 : 1; // '' escapes a quote
                }
                cur.append(script, i, Math.min(n, j + 1));
                i = j;
            } else if (c == ';' && SET_BEGIN.matcher(cur).matches()
                    && !SET_END.matcher(cur).matches()) {
                cur.append(c);
            } else if (c == ';') {
                add(out, cur);
            } else {
                cur.append(c);
            }
        }
        add(out, cur);
        return out;
    }

    private static void add(List<String> out, StringBuilder cur) {
        String s = cur.toString().strip();
        if (!s.isEmpty()) {
            out.add(s);
        }
        cur.setLength(0);
    }

    /** {@code SET 'key' = 'value'} as a key and value (the Table API leaves SET to clients). */
    public static Optional<String[]> set(String statement) {
        Matcher m = SET.matcher(statement);
        return m.matches() ? Optional.of(new String[] {m.group(1), m.group(2)}) : Optional.empty();
    }
}

package io.github.flinkinfer.jobs.workload;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A workload's deadline: either a duration from the run's submission ({@code 20m}, {@code 1h30m},
 * {@code PT20M}) or a wall-clock time ({@code 2026-12-01T06:00:00Z}, {@code 2026-12-01T06:00+01:00};
 * without an offset, the machine's time zone).
 */
public record Deadline(Duration duration, Instant at) {
    private static final Pattern SHORT = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

    public Deadline {
        if ((duration == null) == (at == null)) {
            throw new IllegalArgumentException("a deadline is a duration or a time, exactly one");
        }
    }

    /** Jackson's way in: the card's text. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Deadline fromText(String text) {
        return parse(text);
    }

    /** Parses the card's text; throws {@link IllegalArgumentException} naming the accepted forms. */
    public static Deadline parse(String text) {
        String t = text.trim();
        Matcher m = SHORT.matcher(t.toLowerCase(Locale.ROOT));
        if (!t.isEmpty() && m.matches() && (m.group(1) != null || m.group(2) != null || m.group(3) != null)) {
            long seconds = group(m, 1) * 3600 + group(m, 2) * 60 + group(m, 3);
            return new Deadline(Duration.ofSeconds(seconds), null);
        }
        try {
            if (t.toUpperCase(Locale.ROOT).startsWith("P")) {
                return new Deadline(Duration.parse(t), null);
            }
            if (t.endsWith("Z") || t.matches(".*[+-]\\d\\d:?\\d\\d$")) {
                return new Deadline(null, OffsetDateTime.parse(t).toInstant());
            }
            return new Deadline(null, LocalDateTime.parse(t).atZone(ZoneId.systemDefault()).toInstant());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("deadline '" + text + "' is neither a duration (20m, 1h30m,"
                    + " 90s, PT20M) nor a time (2026-12-01T06:00:00Z, 2026-12-01T06:00)");
        }
    }

    /** When the run must have finished, for a run submitted at {@code start}. */
    public Instant due(Instant start) {
        return at != null ? at : start.plus(duration);
    }

    /** Time left for a run submitted at {@code start}. */
    public Duration available(Instant start) {
        return Duration.between(start, due(start));
    }

    @JsonValue
    @Override
    public String toString() {
        return at != null ? at.toString() : duration.toString();
    }

    private static long group(Matcher m, int i) {
        return m.group(i) == null ? 0 : Long.parseLong(m.group(i));
    }
}

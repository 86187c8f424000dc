package io.github.flinkinfer.jobs.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * Numbers as people read them in the report: thousands grouped, three significant digits, and
 * tiny values (a cost per item) in scientific notation instead of a row of zeros.
 */
public final class HumanNumbers {
    private static final String SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹";

    private HumanNumbers() {}

    /** 12345 → {@code 12,345}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** 3 significant digits; ≥ 1000 grouped; below 0.001 as {@code 1.8 × 10⁻⁷}. */
    public static String num(double v) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return v == 0 ? "0" : String.valueOf(v);
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 0.001) {
            return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
        }
        int exp = (int) Math.floor(Math.log10(a));
        double mantissa = v / Math.pow(10, exp);
        if (Math.abs(mantissa) >= 9.95) { // rounding carried to the next power
            mantissa /= 10;
            exp++;
        }
        return String.format(Locale.ROOT, "%.2g", mantissa).replaceAll("\\.?0+$", "")
                + " × 10" + superscript(exp);
    }

    /** {@code 1.9 × 10⁻⁴ USD}. */
    public static String money(double v, String currency) {
        return num(v) + " " + currency;
    }

    /** A tiny per-unit price per million units: {@code 0.18 USD per 1M items}. */
    public static String perMillion(double perUnit, String currency, String units) {
        return num(perUnit * 1e6) + " " + currency + " per 1M " + units;
    }

    /** Seconds, or milliseconds below one second. */
    public static String duration(double seconds) {
        return seconds < 1 && seconds > 0 ? num(seconds * 1000) + " ms" : num(seconds) + " s";
    }

    private static String superscript(int exp) {
        StringBuilder b = new StringBuilder(exp < 0 ? "⁻" : "");
        for (char c : String.valueOf(Math.abs(exp)).toCharArray()) {
            b.append(SUPERSCRIPTS.charAt(c - '0'));
        }
        return b.toString();
    }
}

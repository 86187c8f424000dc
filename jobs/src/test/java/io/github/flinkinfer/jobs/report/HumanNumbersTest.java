package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HumanNumbersTest {
    @Test
    void tinyValuesAreScientificOthersHaveThreeSignificantDigits() {
        assertThat(HumanNumbers.num(0.00000018)).isEqualTo("1.8 × 10⁻⁷");
        assertThat(HumanNumbers.num(0.000194)).isEqualTo("1.9 × 10⁻⁴");
        assertThat(HumanNumbers.num(0.0000999)).isEqualTo("1 × 10⁻⁴");
        assertThat(HumanNumbers.num(0.009)).isEqualTo("0.009");
        assertThat(HumanNumbers.num(0.83333)).isEqualTo("0.833");
        assertThat(HumanNumbers.num(35.14)).isEqualTo("35.1");
        assertThat(HumanNumbers.num(100)).isEqualTo("100");
        assertThat(HumanNumbers.num(12345.6)).isEqualTo("12,346");
        assertThat(HumanNumbers.num(0)).isEqualTo("0");
        assertThat(HumanNumbers.count(1579)).isEqualTo("1,579");
    }

    @Test
    void pricesPerUnitReadPerMillionAndDurationsInTheirUnit() {
        assertThat(HumanNumbers.perMillion(0.00000018, "USD", "items")).isEqualTo("0.18 USD per 1M items");
        assertThat(HumanNumbers.money(0.0123, "EUR")).isEqualTo("0.0123 EUR");
        assertThat(HumanNumbers.duration(13.84)).isEqualTo("13.8 s");
        assertThat(HumanNumbers.duration(0.25)).isEqualTo("250 ms");
    }
}

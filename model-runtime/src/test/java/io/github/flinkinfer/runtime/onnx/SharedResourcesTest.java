package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedResourcesTest {

    /** A value that counts its closes. */
    static final class Counted implements AutoCloseable {
        final AtomicInteger closes = new AtomicInteger();

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    @Test
    void secondUserSharesTheValueAndTheLastReleaseClosesIt() {
        SharedResources<String, Counted> registry = new SharedResources<>();
        AtomicInteger loads = new AtomicInteger();
        SharedResources.Lease<Counted> a = registry.acquire("m", () -> {
            loads.incrementAndGet();
            return new Counted();
        });
        SharedResources.Lease<Counted> b = registry.acquire("m", () -> {
            loads.incrementAndGet();
            return new Counted();
        });
        assertThat(b.value()).isSameAs(a.value());
        assertThat(loads).hasValue(1);
        assertThat(registry.loads()).isEqualTo(1);
        assertThat(a.loadedHere()).isTrue();
        assertThat(b.loadedHere()).isFalse();
        assertThat(b.users()).isEqualTo(2);

        Counted value = a.value();
        a.close();
        a.close(); // a second close of one lease is ignored
        assertThat(value.closes).hasValue(0);
        assertThat(registry.size()).isEqualTo(1);
        b.close();
        assertThat(value.closes).hasValue(1);
        assertThat(registry.size()).isZero();

        // a user after the last one left loads afresh
        try (SharedResources.Lease<Counted> c = registry.acquire("m", Counted::new)) {
            assertThat(c.value()).isNotSameAs(value);
            assertThat(registry.loads()).isEqualTo(2);
        }
    }

    @Test
    void differentKeysGetDifferentValues() {
        SharedResources<String, Counted> registry = new SharedResources<>();
        try (var a = registry.acquire("cuda:0", Counted::new);
                var b = registry.acquire("cuda:1", Counted::new)) {
            assertThat(a.value()).isNotSameAs(b.value());
            assertThat(registry.size()).isEqualTo(2);
        }
        assertThat(registry.size()).isZero();
    }

    @Test
    void aFailedLoadIsNotCachedAndLeavesNoUser() {
        SharedResources<String, Counted> registry = new SharedResources<>();
        assertThatThrownBy(() -> registry.acquire("m", () -> {
                    throw new IllegalStateException("no CUDA");
                }))
                .hasMessage("no CUDA");
        assertThat(registry.size()).isZero();
        try (var lease = registry.acquire("m", Counted::new)) {
            assertThat(lease.loadedHere()).isTrue();
        }
    }

    @Test
    void warmUpRunsOncePerValue() {
        SharedResources<String, Counted> registry = new SharedResources<>();
        AtomicInteger warmUps = new AtomicInteger();
        try (var a = registry.acquire("m", Counted::new);
                var b = registry.acquire("m", Counted::new)) {
            assertThat(a.warmUpOnce(warmUps::incrementAndGet)).isTrue();
            assertThat(b.warmUpOnce(warmUps::incrementAndGet)).isFalse();
        }
        assertThat(warmUps).hasValue(1);
    }
}

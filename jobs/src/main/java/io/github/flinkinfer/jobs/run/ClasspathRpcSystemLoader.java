package io.github.flinkinfer.jobs.run;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;
import org.apache.flink.runtime.rpc.exceptions.RpcLoaderException;

/**
 * Flink's Pekko RPC system from the class path, for the embedded cluster. Flink's own loader
 * ({@code PekkoRpcSystemLoader}, in flink-rpc-akka-loader) copies the 24 MB flink-rpc-akka.jar it
 * carries to a new file under {@code io.tmp.dirs} on every cluster start and loads Pekko and Scala
 * from there in a class loader of its own, so none of those 12,000 classes can come from the
 * launcher's class-data archive and each is read and verified again: about a second of a 2-core
 * machine's embedded run (docs/benchmarks/cold-start.md). The launcher puts the same jar
 * (org.apache.flink:flink-rpc-akka, byte for byte the one the loader carries, copied by the build
 * to jobs/target/launcher/) on its class path, and this loader, tried first ({@link
 * #getLoadPriority}), instantiates its {@code PekkoRpcSystem} there. The jar is no dependency of
 * this module: its unshaded Scala 2.12 would clash with other Scala on a class path (the Kafka
 * test broker's 2.13), which is why Flink loads it apart; the launcher's holds no other Scala.
 *
 * <p>Where that class is not on the class path (a Flink distribution, whose lib/ has only the
 * loader; the tests) it refuses with an {@link RpcLoaderException}, and {@code RpcSystem.load}
 * goes on to Flink's own loader, so a cluster behaves as without it.
 */
public final class ClasspathRpcSystemLoader implements RpcSystemLoader {
    static final String PEKKO_RPC_SYSTEM = "org.apache.flink.runtime.rpc.pekko.PekkoRpcSystem";

    private final ClassLoader classLoader;

    /** The loader {@code ServiceLoader} makes: Flink's own class loader. */
    public ClasspathRpcSystemLoader() {
        this(RpcSystem.class.getClassLoader());
    }

    ClasspathRpcSystemLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /** Before Flink's loader (priority 0): lower is tried first. */
    @Override
    public int getLoadPriority() {
        return -1;
    }

    @Override
    public RpcSystem loadRpcSystem(Configuration config) {
        try {
            return (RpcSystem) Class.forName(PEKKO_RPC_SYSTEM, true, classLoader).getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new RpcLoaderException(PEKKO_RPC_SYSTEM + " is not on the class path (Flink's own loader follows)", e);
        }
    }
}

package io.github.flinkinfer.jobs.workload;

import java.io.IOException;
import java.time.Instant;
import org.apache.flink.core.fs.Path;
import picocli.CommandLine.Option;

/**
 * {@code embed/moderate --workload CARD}: runs a card with the settings its plan chose (options
 * given on the command line win) and judges the run against the card's clauses (docs/workload.md).
 * The card fills the options as their default values ({@link WorkloadDefaults}); the run's
 * contract is read once, into the run's spec.
 *
 * <pre>{@code
 * embed --workload cards/gcide.yaml --output s3://out/ --run-id nightly --fail-on-missed-contract
 * }</pre>
 */
public class WorkloadOptions {
    @Option(names = "--workload", paramLabel = "CARD",
            description = "Run this workload card (YAML or JSON, docs/workload.md) with the settings"
                    + " `plan --workload CARD` chose; options given here win. The run ends with a"
                    + " verdict per clause (deadline, budget, quality floor, goodput, cost per item).")
    public String card;

    @Option(names = "--plan", paramLabel = "FILE",
            description = "The plan to run the card with. Default: beside the card, <card>.plan.json.")
    public String plan;

    @Option(names = "--fail-on-missed-contract",
            description = "With --workload: a missed deadline or budget fails the run (no success marker,"
                    + " non-zero exit); without it they are only reported. A missed quality floor always"
                    + " fails the run.")
    public boolean failOnMissedContract;

    /** A card and the plan it is run with, both read and checked ({@link #load}). */
    public record Loaded(String card, WorkloadCard workload, String planLocation, WorkloadPlan plan) {}

    /**
     * The run's contract: reads and checks the card and its plan again (every error at once, as
     * {@link WorkloadCard#read} reports them), refuses a card of another task than {@code command},
     * and names the model the run resolved; null without {@code --workload}.
     */
    public WorkloadContract contract(String command, String runModel, Instant now) throws IOException {
        if (card == null) {
            return null;
        }
        Loaded l = load(card, plan, command, now);
        if (!l.plan().feasible()) {
            System.out.println("note: the plan " + l.planLocation() + " found no variant meeting every clause "
                    + l.plan().unmet() + "; running its best effort, the verdicts will show the misses");
        }
        return WorkloadContract.of(card, l.workload(), l.plan(), runModel);
    }

    /**
     * Reads and checks {@code card} and its plan ({@code plan}, or beside the card): the plan
     * exists and was made from this card; with a {@code command}, the card is one of its task.
     */
    public static Loaded load(String card, String plan, String command, Instant now) throws IOException {
        WorkloadCard c = WorkloadCard.read(card, now);
        if (command != null && c.task() != null && !c.task().command().equals(command)) {
            throw new IllegalArgumentException("workload card " + card + " has task " + c.task().command()
                    + ": run it with `" + c.task().command() + " --workload " + card + "`, not `"
                    + command + "`");
        }
        String planLocation = plan != null ? plan : WorkloadPlan.locationFor(card);
        if (!exists(planLocation)) {
            throw new IllegalArgumentException("no plan for workload card " + card + " at " + planLocation
                    + ": run `plan --workload " + card + "` first (or pass --plan FILE)");
        }
        WorkloadPlan p = WorkloadPlan.read(planLocation);
        if (p.cardSha256() == null || !p.cardSha256().equals(WorkloadCard.sha256(card))) {
            throw new IllegalArgumentException("workload card " + card + ": the card changed since it was"
                    + " planned (" + planLocation + "); run `plan --workload " + card + "` again");
        }
        return new Loaded(card, c, planLocation, p);
    }

    private static boolean exists(String location) throws IOException {
        Path path = new Path(location);
        return path.getFileSystem().exists(path);
    }
}

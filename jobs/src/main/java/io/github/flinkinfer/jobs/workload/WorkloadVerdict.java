package io.github.flinkinfer.jobs.workload;

/**
 * One clause of a workload card judged on a finished run: its status, the measured value, the
 * card's target and the plan's forecast (each null where there is none), in {@code unit}, and a
 * one-line detail saying where the numbers come from.
 */
public record WorkloadVerdict(String clause, Status status, Double actual, Double target, Double forecast,
        String unit, String detail) {

    /** Whether the run met the clause; NOT_SET when the card does not state it. */
    public enum Status { MET, MISSED, NOT_SET }

    public boolean missed() {
        return status == Status.MISSED;
    }

    /** The verdict block that ends the console summary. */
    public static void print(java.util.List<WorkloadVerdict> verdicts, WorkloadContract c, java.io.PrintStream out) {
        out.printf("  workload contract  %s%s%n", c.name() != null ? c.name() + " (" + c.card() + ")" : c.card(),
                (c.plannedModel() != null ? ", planned " + c.plannedModel()
                        : ", plan met no variant (best effort " + c.forecastModel() + ")")
                        + (c.plannedModel() != null && c.forecastModel() != null
                        && !c.forecastModel().equalsIgnoreCase(c.plannedModel())
                        ? "; forecasts of " + c.forecastModel() + " (the run's model)" : ""));
        for (WorkloadVerdict v : verdicts) {
            out.printf("    %-24s %-7s %s%n", v.clause(), v.status(), v.detail());
        }
    }
}

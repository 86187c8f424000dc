package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.deploy.DeployFiles.Named;
import io.github.flinkinfer.jobs.testutils.Jobs;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.client.cli.CliFrontendParser;
import org.apache.flink.client.cli.DefaultCLI;
import org.apache.flink.client.cli.ProgramOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.RestOptions;
import org.junit.jupiter.api.Test;

/**
 * deploy/schedule/embed-cronjob.yaml against Kubernetes' model (fabric8, unknown fields failing)
 * and Flink's own CLI parser: a hung run ends at a deadline and takes its Flink job with it,
 * and every scheduled Job runs under its own run id, taken from the Job's name.
 */
class CronJobManifestTest {
    static final String FILE = "schedule/embed-cronjob.yaml";
    /** What the CronJob controller names the Job of one schedule: {@code <cronjob>-<minute>}. */
    static final String JOB_NAME = "embed-wordnet-nightly-29412345";

    @Test
    void aHungRunEndsBeforeTheNextScheduleUnderForbid() throws Exception {
        CronJob cron = OperatorModel.bind(DeployFiles.resource(FILE, "CronJob").resource(), CronJob.class);
        assertThat(cron.getSpec().getSchedule()).isEqualTo("15 2 * * *");
        assertThat(cron.getSpec().getConcurrencyPolicy()).isEqualTo("Forbid");
        JobSpec job = cron.getSpec().getJobTemplate().getSpec();
        assertThat(job.getActiveDeadlineSeconds()).isEqualTo(6 * 3600L).isLessThan(24 * 3600L);
        assertThat(job.getBackoffLimit()).isZero();
        assertThat(job.getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
    }

    @Test
    void theClientRunsAttachedAndCancelsItsJobWhenThePodIsStopped() throws Exception {
        List<String> args = container().getArgs();
        assertThat(container().getCommand()).containsExactly("/opt/flink/bin/flink");
        assertThat(args.get(0)).isEqualTo("run");
        Options options = CliFrontendParser.getRunCommandOptions();
        DefaultCLI cli = new DefaultCLI();
        cli.addRunOptions(options);
        cli.addGeneralOptions(options);
        CommandLine line = CliFrontendParser.parse(options, args.subList(1, args.size()).toArray(String[]::new), true);
        ProgramOptions program = ProgramOptions.create(line);
        // As CliFrontend builds it: the CLI's -m/-D, then the program options on top.
        Configuration effective = cli.toConfiguration(line);
        program.applyToConfiguration(effective);

        assertThat(effective.get(DeploymentOptions.ATTACHED)).isTrue();
        assertThat(effective.get(DeploymentOptions.SHUTDOWN_IF_ATTACHED)).as("-sae").isTrue();
        assertThat(effective.get(ExecutionOptions.RUNTIME_MODE)).isEqualTo(RuntimeExecutionMode.BATCH);
        assertThat(effective.get(RestOptions.ADDRESS)).isEqualTo("flink-session-rest");
        assertThat(program.getJarFilePath()).isEqualTo("/opt/flink/usrlib/flink-batch-inference-job.jar");
        assertThat(program.getProgramArgs()[0]).isEqualTo("embed");
    }

    @Test
    void everyScheduledJobRunsUnderItsOwnRunIdFromTheJobName() throws Exception {
        Container submit = container();
        assertThat(submit.getEnv()).singleElement().satisfies(env -> {
            assertThat(env.getName()).isEqualTo("RUN_ID");
            assertThat(env.getValueFrom().getFieldRef().getFieldPath())
                    .isEqualTo("metadata.labels['batch.kubernetes.io/job-name']");
        });
        List<String> args = submit.getArgs();
        List<String> embed = args.subList(args.indexOf("embed") + 1, args.size()).stream()
                .map(a -> a.replace("$(RUN_ID)", JOB_NAME)).toList();   // as the kubelet expands it
        assertThat(embed).containsSequence("--run-id", JOB_NAME);
        RunOptions o = Jobs.options(embed.toArray(String[]::new));
        o.validate();
        assertThat(o.runId).isEqualTo(JOB_NAME).matches("[A-Za-z0-9._-]+");
        assertThat(o.index.previousOutput).isEqualTo(o.output);
    }

    private static Container container() throws Exception {
        Named file = DeployFiles.resource(FILE, "CronJob");
        CronJob cron = OperatorModel.bind(file.resource(), CronJob.class);
        List<Container> containers = cron.getSpec().getJobTemplate().getSpec().getTemplate().getSpec().getContainers();
        assertThat(containers).extracting(Container::getName).containsExactly("submit");
        return containers.get(0);
    }
}

package io.github.flinkinfer.runtime.onnx;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.InferenceException;
import io.github.flinkinfer.runtime.LoadTimes;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.postprocess.ModelOutput;
import io.github.flinkinfer.runtime.postprocess.PostProcessing;
import java.nio.FloatBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link ModelTask#CLASSIFICATION} model behind {@link ModelRuntime}: returns one row of scores
 * per input, in the order of the card's labels (softmax, sigmoid or as-is, see {@link
 * Classification} and {@link Classification#activationSteps}). Two shapes:
 *
 * <ul>
 *   <li><b>embed → head</b> (card names an {@code embedding}): the base model's pooled,
 *       normalized embedding [batch, hidden] is fed to the small head graph {@code onnx}, which
 *       outputs [batch, classes], then the activation runs here. Both graphs are checksum-verified.
 *   <li><b>single graph</b>: {@code onnx} takes the token inputs (text pairs too, for a
 *       cross-encoder) and outputs [batch, classes]; the activation is the encoder's last
 *       post-processing step.
 * </ul>
 *
 * <pre>{@code
 * try (ModelRuntime m = ClassifierModel.load(ModelCard.resolve("spam-assassin-minilm"), options)) {
 *     float[] scores = m.infer(batch).vectors()[0]; // [p(ham), p(spam)]
 * }
 * }</pre>
 */
public final class ClassifierModel implements ModelRuntime {
    private final ModelCard card;
    private final Classification classes;
    private final PostProcessing activation;
    private final OnnxModel encoder;
    private final OrtSession head;
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();

    private ClassifierModel(ModelCard card, OnnxModel encoder, OrtSession head) {
        this.card = card;
        this.classes = card.classification;
        this.activation = classes.activationSteps();
        this.encoder = encoder;
        this.head = head;
    }

    /** Verifies every file's checksum and opens the graph(s) on the options' device. */
    public static ClassifierModel load(ModelCard card, RuntimeOptions options) {
        if (card.task != ModelTask.CLASSIFICATION) {
            throw new IllegalArgumentException(
                    "Model '" + card.name + "' has task " + card.task + ", not CLASSIFICATION");
        }
        if (card.base == null) {
            return new ClassifierModel(card, OnnxModel.open(card, options, card.postProcessing()), null);
        }
        byte[] headBytes = ModelFiles.readVerified(card, card.onnx);
        OnnxModel encoder = OnnxModel.load(card.base, options);
        OrtSession head = null;
        try {
            head = OrtSessions.create(headBytes, options.withIntraOpThreads(1)).session();
            checkHead(card, head);
            return new ClassifierModel(card, encoder, head);
        } catch (OrtException | RuntimeException e) {
            encoder.close();
            closeQuietly(head);
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("Cannot create the head session of " + card.id(), e);
        }
    }

    private static void checkHead(ModelCard card, OrtSession head) throws OrtException {
        Classification c = card.classification;
        if (!head.getInputNames().contains(c.headInput) || !head.getOutputNames().contains(c.headOutput)) {
            throw new IllegalArgumentException(
                    "Model '" + card.name + "' head has no input '" + c.headInput + "' / output '"
                            + c.headOutput + "' (inputs " + head.getInputNames() + ", outputs "
                            + head.getOutputNames() + ")");
        }
        NodeInfo out = head.getOutputInfo().get(c.headOutput);
        if (out.getInfo() instanceof TensorInfo t && t.getShape().length == 2 && t.getShape()[1] > 0
                && t.getShape()[1] != c.labels.size()) {
            throw new IllegalArgumentException(
                    "Model '" + card.name + "' head outputs " + t.getShape()[1] + " classes but the card"
                            + " names " + c.labels.size() + " labels " + c.labels);
        }
    }

    @Override
    public Inference infer(List<int[]> batch) {
        return infer(batch, null);
    }

    @Override
    public Inference infer(List<int[]> batch, List<int[]> segmentIds) {
        Inference encoded = encoder.infer(batch, segmentIds);
        if (head == null) {
            requireColumns(encoded.vectors());
            return encoded;
        }
        long t0 = System.nanoTime();
        float[][] logits = runHead(encoded.vectors());
        long t1 = System.nanoTime();
        requireColumns(logits);
        float[][] scores = activation.apply(new ModelOutput.Vectors(logits));
        long t2 = System.nanoTime();
        return new Inference(scores, encoded.tensorNanos(), encoded.runNanos() + (t1 - t0),
                encoded.postNanos() + (t2 - t1));
    }

    private void requireColumns(float[][] rows) {
        for (float[] row : rows) {
            classes.requireColumns(row.length);
        }
    }

    private float[][] runHead(float[][] embeddings) {
        int rows = embeddings.length;
        int width = rows == 0 ? 0 : embeddings[0].length;
        FloatBuffer buffer = FloatBuffer.allocate(rows * width);
        for (float[] e : embeddings) {
            buffer.put(e);
        }
        buffer.flip();
        try (OnnxTensor input = OnnxTensor.createTensor(env, buffer, new long[] {rows, width});
                OrtSession.Result result =
                        head.run(Map.of(classes.headInput, input), Set.of(classes.headOutput))) {
            return (float[][]) result.get(0).getValue();
        } catch (OrtException | RuntimeException e) {
            throw InferenceException.from(e);
        }
    }

    @Override
    public ModelCard card() {
        return card;
    }

    @Override
    public Device device() {
        return encoder.device();
    }

    /** The encoder's load (a separate head graph is small and not counted). */
    @Override
    public LoadTimes loadTimes() {
        return encoder.loadTimes();
    }

    @Override
    public void close() {
        try {
            encoder.close();
        } finally {
            closeQuietly(head);
        }
    }

    private static void closeQuietly(OrtSession session) {
        if (session == null) {
            return;
        }
        try {
            session.close();
        } catch (OrtException ignored) {
            // closing: nothing left to do
        }
    }
}

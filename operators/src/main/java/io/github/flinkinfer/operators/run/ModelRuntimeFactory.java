package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import io.github.flinkinfer.runtime.onnx.ClassifierModel;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.io.Serializable;

/**
 * Opens a {@link ModelRuntime} on the TaskManager. Serializable so it travels with the job
 * graph; the model itself is loaded (and its checksum verified) only in {@link #open()}.
 * Tests wrap it to inject faults.
 */
public interface ModelRuntimeFactory extends Serializable {

    /** Opens the model on {@code device} (chosen per subtask, see {@link DevicePlacement}). */
    ModelRuntime open(Device device);

    ModelCard card();

    RuntimeOptions options();

    /** The ONNX Runtime implementation. */
    static ModelRuntimeFactory onnx(ModelCard card, RuntimeOptions options) {
        return new Onnx(card, options);
    }

    /** Loads the card's ONNX model with ONNX Runtime. */
    record Onnx(ModelCard card, RuntimeOptions options) implements ModelRuntimeFactory {
        @Override
        public ModelRuntime open(Device device) {
            return card.task == ModelTask.CLASSIFICATION
                    ? ClassifierModel.load(card, options.withDevice(device))
                    : OnnxModel.load(card, options.withDevice(device));
        }
    }
}

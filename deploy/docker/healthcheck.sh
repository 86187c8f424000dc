#!/usr/bin/env bash
# The GPU image's health check: on a TaskManager, `doctor` (model-runtime's CudaDoctor, run with
# the job jar and lib/ alone, no Flink) must say ONNX Runtime's CUDA provider can load on the GPU
# Flink gave it (FLINKINFER_HEALTH_DEVICE, default cuda:0); its report goes to the container's
# health log (docker inspect). A JobManager needs no GPU and is healthy. FLINKINFER_HEALTH_DEVICE=cpu
# turns it off for CPU TaskManagers; FLINKINFER_ORT_NATIVE_DIR checks an --ort-native-dir build.
set -uo pipefail

device=${FLINKINFER_HEALTH_DEVICE:-cuda:0}
[[ $device == cpu ]] && exit 0
taskmanager=false
for cmdline in /proc/[0-9]*/cmdline; do
    grep -qa 'TaskManagerRunner' "$cmdline" 2>/dev/null && taskmanager=true && break
done
$taskmanager || exit 0
exec java -cp "/opt/flink/usrlib/flink-batch-inference-job.jar:/opt/flink/lib/*" \
    io.github.flinkinfer.runtime.node.CudaDoctor "$device" ${FLINKINFER_ORT_NATIVE_DIR:+"$FLINKINFER_ORT_NATIVE_DIR"}

#!/usr/bin/env bash
# What `flink-inference doctor --device cuda[:N]` (model-runtime's CudaDoctor) looks at on a node,
# printed with shell tools only (no JDK, no build), to compare a real GPU node with the doctor's
# unit tests (CudaDoctorTest: a CUDA 13 node, a CUDA 12 node, no driver). Copy it to the node
# alone or run it from the repository; it reads the recorded needs from
# model-runtime/src/main/resources/node/onnxruntime-cuda-provider.properties when that file is
# there, else the list below (onnxruntime_gpu 1.23.2's libonnxruntime_providers_cuda.so DT_NEEDED).
#
#   bash bench/device/doctor-probe.sh [GPU_INDEX] [ORT_NATIVE_DIR]
#
# With ORT_NATIVE_DIR (an ONNX Runtime build's lib directory, as --ort-native-dir takes) its own
# libonnxruntime_providers_cuda.so's needs are read with readelf (binutils) instead.
set -uo pipefail

gpu=${1:-0}
native_dir=${2:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
record=$here/../../model-runtime/src/main/resources/node/onnxruntime-cuda-provider.properties
needed="libcublasLt.so.12,libcublas.so.12,libcurand.so.10,libcufft.so.11,libcudart.so.12,libcudnn.so.9,libdl.so.2,librt.so.1,libpthread.so.0,libstdc++.so.6,libm.so.6,libgcc_s.so.1,libc.so.6,ld-linux-x86-64.so.2"
source="built-in list (onnxruntime_gpu 1.23.2)"
if [[ -f $record ]]; then
    needed=$(sed -n 's/^needed=//p' "$record")
    source="$record ($(sed -n 's/^artifact=//p' "$record"))"
fi
if [[ -n $native_dir ]]; then
    for f in libonnxruntime.so libonnxruntime4j_jni.so libonnxruntime_providers_shared.so libonnxruntime_providers_cuda.so; do
        [[ -f $native_dir/$f ]] && echo "native dir: $native_dir/$f present" || echo "native dir: $native_dir/$f MISSING"
    done
    if [[ -f $native_dir/libonnxruntime_providers_cuda.so ]] && command -v readelf >/dev/null; then
        needed=$(readelf -d "$native_dir/libonnxruntime_providers_cuda.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | paste -sd, -)
        source="readelf -d $native_dir/libonnxruntime_providers_cuda.so"
    fi
fi

echo "== needs (from $source)"
echo "== loader search: LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-(none)}, ldconfig -p, /lib64 /usr/lib64 /lib /usr/lib"
cache=$( (command -v ldconfig >/dev/null && ldconfig -p) || (/sbin/ldconfig -p 2>/dev/null) || true)
arch=x86-64; [[ $(uname -m) == aarch64 ]] && arch=AArch64
missing=()
find_lib() { # prints where the loader would take $1 from, or nothing
    local name=$1 dir
    IFS=: read -r -a dirs <<< "${LD_LIBRARY_PATH:-}"
    for dir in "${dirs[@]}"; do
        [[ -n $dir && -e $dir/$name ]] && { echo "$dir/$name (LD_LIBRARY_PATH)"; return; }
    done
    local hit
    hit=$(grep -F "	$name (" <<< "$cache" | grep -F "$arch" | head -1 | sed 's/.*=> //')
    [[ -n $hit ]] && { echo "$hit (ld.so.cache)"; return; }
    for dir in /lib64 /usr/lib64 /lib /usr/lib; do
        [[ -e $dir/$name ]] && { echo "$dir/$name (standard directory)"; return; }
    done
}
IFS=, read -r -a sonames <<< "$needed"
for soname in "${sonames[@]}" libcuda.so.1; do
    where=$(find_lib "$soname")
    printf '  %-24s %s\n' "$soname" "${where:-missing}"
    [[ -z $where && $soname == libcu* ]] && missing+=("$soname")
done

echo "== CUDA runtimes and cuDNN this node has (ldconfig -p, LD_LIBRARY_PATH)"
{ grep -oE 'libcudart\.so\.[0-9]+ |libcudnn\.so\.[0-9]+ |libcublasLt\.so\.[0-9]+ |libcufft\.so\.[0-9]+ ' <<< "$cache"
  IFS=: read -r -a dirs <<< "${LD_LIBRARY_PATH:-}"
  for dir in "${dirs[@]}"; do
      [[ -n $dir ]] && ls "$dir" 2>/dev/null | grep -E '^lib(cudart|cudnn|cublasLt|cufft)\.so\.[0-9]+$'
  done; } | tr -d ' ' | sort -u | paste -sd' ' - | sed 's/^/  /'

echo "== /proc/driver/nvidia/version"
cat /proc/driver/nvidia/version 2>/dev/null || echo "  (absent: no NVIDIA kernel module loaded)"
echo "== nvidia-smi"
if command -v nvidia-smi >/dev/null; then
    nvidia-smi | grep -o 'CUDA Version: *[0-9.]*' || echo "  (no CUDA Version in nvidia-smi's header)"
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader,nounits
else
    echo "  (not found)"
fi

echo "== what doctor would conclude for cuda:$gpu (CUDA libraries only; it also checks the class path's provider)"
if [[ ! -e /proc/driver/nvidia/version ]] && ! command -v nvidia-smi >/dev/null; then
    echo "  no NVIDIA driver / no GPU on this node"
fi
if (( ${#missing[@]} )); then
    echo "  missing: ${missing[*]}"
else
    echo "  every CUDA library the provider needs is found"
fi

#!/usr/bin/env bash
# System packages the test suite needs (idempotent; skipped when already present).
set -euo pipefail
need=()
command -v java >/dev/null || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need+=(maven)
# headless Chromium renders report.html in ReportBrowserTest
[ -x /usr/bin/chromium ] || need+=(chromium)
# a real Pushgateway and Prometheus for RunMetricsPushITCase and RunsDashboardITCase
[ -x /usr/bin/prometheus-pushgateway ] || need+=(prometheus-pushgateway)
[ -x /usr/bin/prometheus ] || need+=(prometheus)
# Debian's python3-onnx builds the benchmark fixture model (bench/fixture) for WideParallelismITCase
/usr/bin/python3 -c 'import onnx' 2>/dev/null || need+=(python3-onnx)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}"
fi

# Sourced by the bench scripts that compare trees (cold-start.sh, first-batch.sh).
# classpath TREE NAME: compiles TREE's jobs module and prints its classpath (logs under $OUT).
classpath() {
    (cd "$1" && mvn -B -o -q -pl jobs -am compile dependency:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile="$OUT/cp-$2.txt" >"$OUT/build-$2.log" 2>&1)
    echo "$1/jobs/target/classes:$(cat "$OUT/cp-$2.txt")"
}

/** Model cards from any Flink file system: the {@code ModelStore} the TaskManagers copy model files through. */
package io.github.flinkinfer.operators.models;

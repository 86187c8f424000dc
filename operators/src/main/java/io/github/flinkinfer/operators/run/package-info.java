/**
 * Run stage: the inference operator, its model factory and device placement, the executors that
 * call the model on or beside the task thread, bisecting of failing batches, and the quality gate.
 */
package io.github.flinkinfer.operators.run;

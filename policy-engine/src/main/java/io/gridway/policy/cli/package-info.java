/**
 * The operator commands {@code gridway policy validate} and {@code gridway policy explain}, as
 * classes with a {@code run(args, out, err)} entry point that the {@code gridway} launcher wraps.
 */
package io.gridway.policy.cli;

/** Snapshot chunks of existing rows, read between two log positions (docs/bootstrap.md). */
package io.gridway.core.snapshot;

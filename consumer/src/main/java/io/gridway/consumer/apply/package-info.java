/** Appliers available without a database: a counting null applier and a JSON-lines logging applier. */
package io.gridway.consumer.apply;

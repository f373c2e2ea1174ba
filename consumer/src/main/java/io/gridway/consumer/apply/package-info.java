/** The applier SPI ({@link io.gridway.consumer.apply.ApplierProvider}) and the appliers that need no database: a counting null applier and a JSON-lines logging applier. */
package io.gridway.consumer.apply;

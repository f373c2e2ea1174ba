/** The checkpoint SPI: where consumers record how far each partition has been applied. */
package io.gridway.core.checkpoint;

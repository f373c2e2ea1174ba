/** The fetcher SPI: what a relay needs from any source of change data (binlog, GoldenGate, synthetic). */
package io.gridway.core.fetch;

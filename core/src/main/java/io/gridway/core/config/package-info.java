/** Loading YAML configuration into immutable records, with errors that name the file, line and key. */
package io.gridway.core.config;

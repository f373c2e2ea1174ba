/** {@code gridway demo}: the whole grid in one process against private MariaDB and PostgreSQL servers. */
package io.gridway.deploy.demo;

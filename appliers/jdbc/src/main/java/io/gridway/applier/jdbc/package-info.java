/** The JDBC applier: MariaDB/MySQL, PostgreSQL and Phoenix targets, exactly-once checkpoints, conflicts. */
package io.gridway.applier.jdbc;

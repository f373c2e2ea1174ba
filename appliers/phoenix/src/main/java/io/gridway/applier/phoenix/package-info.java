/** The Phoenix applier: guarded atomic upserts into HBase through Phoenix JDBC, or a change log (README.md). */
package io.gridway.applier.phoenix;

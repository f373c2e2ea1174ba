/** Relay integration tests against a private MariaDB (testkit), asserted at the HTTP level. */
package io.gridway.relay.mysql;

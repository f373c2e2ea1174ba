/** Server-side TLS shared by the relay API and the admin service: {@link io.gridway.tls.ServerTls}. */
package io.gridway.tls;

/** The relay process: configuration, the composition root wiring fetcher → publisher → buffer → HTTP, and its main. */
package io.gridway.relay;

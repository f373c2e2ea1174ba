package io.gridway.relay.http;

/**
 * What a response needs to know of its request after the request object is released.
 *
 * @param path the request path (the problem document's {@code instance})
 * @param keepAlive whether the connection stays open after the response
 * @param coding the negotiated content coding
 */
record RequestInfo(String path, boolean keepAlive, ContentCoding coding) {}

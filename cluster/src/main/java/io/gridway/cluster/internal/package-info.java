/** Helix state models; public only because Helix invokes their transitions by reflection. Not an API. */
package io.gridway.cluster.internal;

/** Small file-system helpers that several modules need to get exactly right. */
package io.gridway.core.io;

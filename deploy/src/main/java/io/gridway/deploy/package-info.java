/** The {@code gridway} launcher: one picocli command per role, wrapping each module's composition root. */
package io.gridway.deploy;

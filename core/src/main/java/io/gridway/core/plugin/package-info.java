/** Fetchers and appliers found by name through {@link java.util.ServiceLoader} ({@code source.type}, {@code applier.type}). */
package io.gridway.core.plugin;

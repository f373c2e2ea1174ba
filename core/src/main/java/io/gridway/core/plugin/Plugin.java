package io.gridway.core.plugin;

/**
 * An implementation a configuration chooses by name: a fetcher ({@code source.type}) or an applier ({@code
 * applier.type}). Implementations register in {@code META-INF/services} under their kind's interface, so a jar on
 * the class path (or an add-on's class loader) is all it takes to install one; {@link Plugins} finds them.
 *
 * <p>Its settings are the configuration section named after {@link #type()}, read into {@link #settingsType()}
 * with the same strict rules as every other config record (unknown keys rejected, validation in the record).
 */
public interface Plugin {

  /** The name configurations use: lower-case letters, digits and '-', unique within its kind. */
  String type();

  /** The record its configuration section is read into, or {@code Void.class} when it takes no settings. */
  Class<?> settingsType();
}

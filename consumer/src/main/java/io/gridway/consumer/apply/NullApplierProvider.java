package io.gridway.consumer.apply;

/** {@code applier.type: null}: counts what arrives and applies nothing (measuring, dry runs). */
public final class NullApplierProvider implements ApplierProvider<Void> {

  @Override
  public String type() {
    return "null";
  }

  @Override
  public Class<Void> settingsType() {
    return Void.class;
  }

  @Override
  public Applier open(Void settings, ApplierContext context) {
    return Applier.of(new NullApplier());
  }
}

package io.gridway.core.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PluginsTest {
  /** A kind of plugin with two implementations registered in this module's test resources. */
  public interface Shape extends Plugin {}

  /** A kind whose two registered implementations claim the same type. */
  public interface Clashing extends Plugin {}

  public static final class Square implements Shape, Clashing {
    @Override
    public String type() {
      return "square";
    }

    @Override
    public Class<?> settingsType() {
      return Void.class;
    }
  }

  public static final class Circle implements Shape {
    @Override
    public String type() {
      return "circle";
    }

    @Override
    public Class<?> settingsType() {
      return String.class;
    }
  }

  public static final class OtherSquare implements Clashing {
    @Override
    public String type() {
      return "square";
    }

    @Override
    public Class<?> settingsType() {
      return Void.class;
    }
  }

  @Test
  void installedImplementationsAreFoundByType() {
    Plugins<Shape> shapes = Plugins.installed(Shape.class, "shape.type");
    assertThat(shapes.types()).containsExactly("circle", "square");
    assertThat(shapes.get("circle")).isInstanceOf(Circle.class);
    assertThat(shapes.find("triangle")).isEmpty();
    assertThat(Plugins.installed(Shape.class, "shape.type")).isSameAs(shapes);
  }

  @Test
  void anUnknownTypeIsNamedWithTheInstalledOnes() {
    assertThatThrownBy(() -> Plugins.installed(Shape.class, "shape.type").get("triangle"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shape.type: 'triangle' is not one of circle, square");
  }

  @Test
  void twoImplementationsOfOneTypeAreRefusedNamingBoth() {
    assertThatThrownBy(() -> Plugins.installed(Clashing.class, "clash.type"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("clash.type 'square' is claimed by both")
        .hasMessageContaining(Square.class.getName()).hasMessageContaining(OtherSquare.class.getName());
  }
}

package io.gridway.deploy;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layering of DESIGN §2, checked on the compiled main classes of every module (deploy sees them all):
 * a fetcher or an applier depends only on core, the policy engine and the consumer library; the consumer library an
 * application embeds pulls in no Helix, ZooKeeper, JDBC or CLI; nothing depends on deploy or perf; and a package
 * named {@code internal} is used only inside its own module.
 */
class LayeringTest {
  private static final String[] SERVICES = {"io.gridway.relay..", "io.gridway.cluster..", "io.gridway.consumer.service..",
      "io.gridway.deploy..", "io.gridway.perf..", "io.gridway.admin.."};
  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.gridway");
  }

  @Test
  void coreDependsOnNoOtherModule() {
    noClasses().that().resideInAPackage("io.gridway.core..")
        .should().dependOnClassesThat().resideInAnyPackage("io.gridway.policy..", "io.gridway.fetcher..",
            "io.gridway.consumer..", "io.gridway.applier..", "io.gridway.relay..", "io.gridway.cluster..",
            "io.gridway.deploy..", "io.gridway.perf..", "io.gridway.testkit..")
        .check(classes);
  }

  @Test
  void fetchersDependOnlyOnCore() {
    noClasses().that().resideInAPackage("io.gridway.fetcher..")
        .should().dependOnClassesThat().resideInAnyPackage(concat(SERVICES, "io.gridway.consumer..",
            "io.gridway.applier..", "io.gridway.policy.."))
        .check(classes);
  }

  @Test
  void appliersDependOnlyOnCorePolicyAndTheConsumerLibrary() {
    noClasses().that().resideInAPackage("io.gridway.applier..")
        .should().dependOnClassesThat().resideInAnyPackage(concat(SERVICES, "io.gridway.fetcher..",
            "org.apache.helix..", "org.apache.zookeeper..", "picocli.."))
        .check(classes);
  }

  @Test
  void theConsumerLibraryPullsInNoClusterJdbcOrCli() {
    noClasses().that().resideInAPackage("io.gridway.consumer..").and().resideOutsideOfPackage("io.gridway.consumer.service..")
        .should().dependOnClassesThat().resideInAnyPackage(concat(SERVICES, "io.gridway.applier..", "io.gridway.fetcher..",
            "io.gridway.policy..", "org.apache.helix..", "org.apache.zookeeper..", "java.sql..", "javax.sql..",
            "com.zaxxer..", "picocli.."))
        .check(classes);
  }

  @Test
  void nothingDependsOnTheDistributionOrThePerfHarness() {
    noClasses().that().resideOutsideOfPackages("io.gridway.deploy..")
        .should().dependOnClassesThat().resideInAPackage("io.gridway.deploy..")
        .check(classes);
    noClasses().that().resideOutsideOfPackages("io.gridway.deploy..", "io.gridway.perf..")
        .should().dependOnClassesThat().resideInAPackage("io.gridway.perf..")
        .check(classes);
  }

  @Test
  void internalPackagesAreUsedOnlyInsideTheirModule() {
    ArchRuleDefinition.classes().should(notUseAnotherModulesInternals()).allowEmptyShould(true).check(classes);
  }

  /** The module a class was compiled in: the folder before {@code target/classes}, or the jar's artifact name. */
  static String module(JavaClass type) {
    String location = type.getSource().map(source -> source.getUri().toString()).orElse("");
    Matcher folder = Pattern.compile("/([^/]+(?:/[^/]+)?)/target/classes/").matcher(location);
    if (folder.find()) {
      return folder.group(1);
    }
    Matcher jar = Pattern.compile("/(gridway-[a-z-]+)-[0-9][^/]*\\.jar").matcher(location);
    return jar.find() ? jar.group(1) : location;
  }

  private static ArchCondition<JavaClass> notUseAnotherModulesInternals() {
    return new ArchCondition<>("use no other module's internal package") {
      @Override
      public void check(JavaClass origin, ConditionEvents events) {
        for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
          JavaClass target = dependency.getTargetClass();
          if (target.getPackageName().matches("io\\.gridway\\..*\\binternal\\b.*") && !module(target).equals(module(origin))) {
            events.add(SimpleConditionEvent.violated(origin, dependency.getDescription() + " reaches into the internal "
                + "package of " + module(target)));
          }
        }
      }
    };
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }
}

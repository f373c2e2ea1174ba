package io.gridway.fetcher.goldengate;

/** Turns one complete record into a {@link ChangeUnit}. Not thread-safe: the fetcher thread owns it. */
interface UnitParser {

  /**
   * @throws MalformedRecordException naming the reason when the record breaks the documented format, names a
   *     table without a schema file, or holds a value its column cannot take
   */
  ChangeUnit parse(byte[] buf, int start, int end);

  static UnitParser of(GoldenGateConfig config, SchemaDirectory schemas) {
    return config.trailFormat() == GoldenGateConfig.Format.JSON
        ? new JsonOpParser(schemas, config.csnToken(), config.xidToken())
        : new XmlTransactionParser(schemas, config.csnToken(), config.xidToken());
  }

  /** A CSN token's value: a positive decimal number (an Oracle SCN). */
  static long csn(String text, String token) {
    try {
      long value = Long.parseUnsignedLong(text.trim());
      if (value == 0) {
        throw new MalformedRecordException(token + " is 0; a CSN is positive");
      }
      return value;
    } catch (NumberFormatException e) {
      throw new MalformedRecordException(token + " '" + ValueDecoders.abbreviated(text) + "' is not a decimal number");
    }
  }
}

/** The binary wire codec of {@code docs/wire-format.md}: frames, their encoder, decoder and views. */
package io.gridway.core.wire;

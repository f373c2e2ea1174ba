/** The admin service ({@code gridway admin}): Helix controller host, REST API under {@code /api/v1}, web UI. */
package io.gridway.admin;

/** Bumped when any message changes shape; peers with different versions refuse each other at hello. */
export const PROTOCOL_VERSION = 15;

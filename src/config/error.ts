/** A setting, or a rule between settings, that the server cannot run with: one line saying which and why. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

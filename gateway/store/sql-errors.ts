// PostgreSQL error classes, recognised the same way on both backends: `pg` and PGlite both
// put the SQLSTATE in `error.code`. Callers map them to their own error types.
function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** 23505: a UNIQUE or PRIMARY KEY constraint refused the row. `constraint` narrows it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return sqlState(error) === '23505' && (constraint === undefined || constraintOf(error) === constraint);
}

/** 23503: a FOREIGN KEY constraint refused the row. */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === '23503';
}

/** The violated constraint's name, when the server reports it. */
export function constraintOf(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

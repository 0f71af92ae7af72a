// Race tests repeat their rounds on the PostgreSQL server (TEST_DATABASE_URL), where requests really overlap. PGlite
// runs one statement at a time, so there the same rounds cannot race: two rounds still check the outcome logic.

export const ON_DATABASE_SERVER = Boolean(process.env.TEST_DATABASE_URL);

export function raceRounds(onServer: number): number {
  return ON_DATABASE_SERVER ? onServer : Math.min(onServer, 2);
}

import { Type } from '@sinclair/typebox';
import { readEnvironment } from '../shared/environment';
import { INTERNAL_API_ENVIRONMENT } from './internal-api/internal-api-config';

// NODE_ENV=production is what turns the gateway strict (no demo directory, no development keys,
// no seller calls to internal addresses). Declared once, in the internal API's schema
// (docs/reference/environment.md lists it there).

const NODE_ENVIRONMENT = Type.Object({ NODE_ENV: INTERNAL_API_ENVIRONMENT.properties.NODE_ENV });

export const isProduction = (env: NodeJS.ProcessEnv = process.env): boolean =>
  readEnvironment(NODE_ENVIRONMENT, env).NODE_ENV === 'production';

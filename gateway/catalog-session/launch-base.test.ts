import { describe, expect, it } from 'vitest';
import { EnvironmentError } from '../../shared/environment';
import { serverSettings } from '../server-settings';
import { launchBase } from './launch-base';

describe('launchBase', () => {
  it('uses GATEWAY_PUBLIC_URL whatever the Host says', () => {
    expect(launchBase('https://gw.example.com/', 'http://evil.example/auth/get_catalog_token')).toBe(
      'https://gw.example.com',
    );
  });

  it("without it, takes a loopback request's own origin and refuses any other Host naming GATEWAY_PUBLIC_URL", () => {
    expect(launchBase(undefined, 'http://127.1:8080/auth/get_catalog_token')).toBe('http://127.0.0.1:8080');
    expect(() => launchBase(undefined, 'http://gw.internal/auth/get_catalog_token')).toThrow(
      /GATEWAY_PUBLIC_URL is not set/,
    );
  });
});

describe('GATEWAY_PUBLIC_URL in production', () => {
  it('is required when NODE_ENV=production, checked with the environment at start', () => {
    expect(() => serverSettings({ NODE_ENV: 'production' })).toThrow(EnvironmentError);
    expect(() => serverSettings({ NODE_ENV: 'production' })).toThrow(
      /GATEWAY_PUBLIC_URL must be set when NODE_ENV=production/,
    );
    expect(serverSettings({ NODE_ENV: 'production', GATEWAY_PUBLIC_URL: 'https://gw.example.com' }).publicUrl).toBe(
      'https://gw.example.com',
    );
    expect(serverSettings({}).publicUrl).toBeUndefined();
  });
});

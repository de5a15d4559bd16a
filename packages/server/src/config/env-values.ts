import { z } from 'zod';

// How an environment variable's text becomes a setting; each refusal says what the value must be.

export const integer = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );

export const boolean = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }))
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const httpUrl = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    error: 'must be an http:// or https:// URL',
  })
  .transform((value) => value.replace(/\/+$/, ''));

export const databaseUrl = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .refine((value) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^(postgres|postgresql):\/\//i.test(value), {
    error: 'must be postgres://… or a SQLite file path (optionally sqlite:path)',
  });

export const redisUrl = z
  .string()
  .trim()
  .refine((value) => /^rediss?:\/\//.test(value) && URL.canParse(value), {
    error: 'must be a redis:// or rediss:// URL',
  });

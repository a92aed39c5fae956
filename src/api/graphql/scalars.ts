/** The schema's custom scalars: DateTime, Decimal, JSON, Upload. */

import { GraphQLError, Kind } from 'graphql';
import { GraphQLUpload } from 'graphql-upload-minimal';
import { builder } from './builder';

builder.scalarType('DateTime', {
  description: 'ISO 8601 timestamp in UTC, e.g. 2026-01-31T12:00:00.000Z',
  serialize: (d) => (d instanceof Date ? d.toISOString() : new Date(d as string).toISOString()),
  parseValue: (v) => {
    const d = new Date(String(v));
    if (typeof v !== 'string' || Number.isNaN(d.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
    return d;
  },
});

/**
 * Money and other exact decimals travel as strings ("19.99") so no client
 * parses them into binary floats. Input also accepts a JSON number; the
 * services validate range and precision.
 */
builder.scalarType('Decimal', {
  description: 'Exact decimal number as a string, e.g. "19.99" (input also accepts a number)',
  serialize: (v) => (typeof v === 'object' && v && 'toFixed' in v ? (v as { toFixed(n: number): string }).toFixed(2) : String(v)),
  parseValue: (v) => {
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    throw new GraphQLError('Decimal must be a number or a numeric string');
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT || ast.kind === Kind.STRING) return ast.value;
    throw new GraphQLError('Decimal must be a number or a numeric string');
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON value',
  serialize: (v) => v,
  parseValue: (v) => v,
});

builder.addScalarType('Upload', GraphQLUpload as never, {});

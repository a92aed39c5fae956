/** Imported first by a test that needs the schema and the app built as `npm start` builds them in development. */
process.env.NODE_ENV = 'development';

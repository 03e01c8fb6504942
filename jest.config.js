export default {
  testEnvironment: 'node',
  transform: {},
  testMatch: ['<rootDir>/tests/js/**/*.test.js'],
  reporters: ['default', '<rootDir>/tests/js/summary-reporter.js'],
  testTimeout: 120000,
  maxWorkers: 2,
};

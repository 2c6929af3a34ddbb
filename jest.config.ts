import type { Config } from 'jest'

const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] as const

const config: Config = {
  projects: [
    {
      displayName: 'portal',
      rootDir: '.',
      roots: ['<rootDir>/src', '<rootDir>/contract'],
      // jest-fixed-jsdom gives jsdom the fetch, Request and streams of Node, so RTK Query and MSW work.
      testEnvironment: 'jest-fixed-jsdom',
      testEnvironmentOptions: { customExportConditions: [''] },
      setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
      moduleNameMapper: { '\\.css$': '<rootDir>/__mocks__/styleMock.ts' },
      transform: {
        '^.+\\.tsx?$': [...tsJest],
        // MSW's ESM-only dependencies, compiled to CommonJS for Jest on Node 20.
        '^.+\\.m?js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', isolatedModules: true } }],
      },
      transformIgnorePatterns: ['/node_modules/(?!until-async/).+\\.c?js$'],
    },
    {
      displayName: 'server',
      rootDir: '.',
      roots: ['<rootDir>/server'],
      testEnvironment: 'node',
      setupFilesAfterEnv: ['<rootDir>/server/test/setup.ts'],
      // The suites that start the server as a process run it compiled, as shipped.
      globalSetup: '<rootDir>/server/test/buildServer.ts',
      transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/server/tsconfig.json' }] },
    },
  ],
}

export default config

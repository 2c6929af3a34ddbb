// One build for every environment: hosts come from dist/env.js at run time (docs/rules.md §2.1).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { constants as zlib } from 'node:zlib'
import CompressionPlugin from 'compression-webpack-plugin'
import CopyWebpackPlugin from 'copy-webpack-plugin'
import CssMinimizerPlugin from 'css-minimizer-webpack-plugin'
import HtmlWebpackPlugin from 'html-webpack-plugin'
import MiniCssExtractPlugin from 'mini-css-extract-plugin'

const root = path.dirname(fileURLToPath(import.meta.url))

export default (_env, argv) => {
  const production = argv.mode !== 'development'
  const portal = {
    name: 'portal',
    mode: production ? 'production' : 'development',
    entry: { main: './src/index.tsx' },
    output: {
      path: path.resolve(root, 'dist'),
      // Absolute public path: deep routes such as /return-item/1/exchange load the same assets.
      publicPath: '/',
      filename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      // Later chunks by number, not name: the start bundle's map of chunk names goes (0.2 KB);
      // chunk-groups.json names them for the server's preload hints and for bench/bytes.
      chunkFilename: production ? 'assets/[id].[contenthash:10].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // react-router 7's package exports point at its development build in every mode, dev-only
      // warnings on (remix-run/react-router#14102, open); a production build takes the production
      // build it ships beside it: 0.5 KB less, and no development warnings in shoppers' consoles.
      alias: production
        ? {
            'react-router$': path.resolve(root, 'node_modules/react-router/dist/production/index.mjs'),
            'react-router/dom$': path.resolve(root, 'node_modules/react-router/dist/production/dom-export.mjs'),
          }
        : {},
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: { loader: 'ts-loader', options: { transpileOnly: true, compilerOptions: { sourceMap: !production } } },
        },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
      ],
    },
    // No source maps in production unless asked for (SOURCE_MAPS=1): they would ship our source.
    devtool: production ? (process.env.SOURCE_MAPS === '1' ? 'source-map' : false) : 'eval-cheap-module-source-map',
    plugins: [
      new HtmlWebpackPlugin({ template: 'public/index.html', scriptLoading: 'defer' }),
      new CopyWebpackPlugin({
        patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html', '**/admin.html'] } }],
      }),
      new MiniCssExtractPlugin({
        // Each screen's CSS styles its own block classes (.photo-thumbs, .support-code…): the
        // order in which screens import them into the one stylesheet does not matter.
        ignoreOrder: true,
        filename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
      }),
      new ChunkGroupsManifest(),
      ...(production ? precompressed() : []),
    ],
    optimization: {
      minimizer: ['...', new CssMinimizerPlugin()],
      // Code shared by later screens goes to a shared async chunk, however small: never duplicated.
      splitChunks: {
        chunks: 'async',
        minSize: 0,
        // One stylesheet for every screen (4 KB gzip), loaded with the page: a later step never
        // waits for (or, offline, misses) its styles, and the start bundle carries no CSS loader.
        cacheGroups: { styles: { name: 'main', type: 'css/mini-extract', chunks: 'all', enforce: true } },
      },
      // One-letter export names across modules (webpack's default keeps longer, stable ones for
      // caching across deploys): 0.4 KB less of the start screen's JavaScript.
      mangleExports: 'size',
      // Terser may write the syntax of the browsers the portal runs in (ES2020: ?., ??, shorter
      // arrows and object shorthands) instead of ES5's, over three passes. Function declarations
      // are hoisted to the top of their scope (as JavaScript does anyway), which lets the
      // following passes inline and join more: 0.5 KB less of the start screen's JavaScript.
      minimizeOptions: { javascript: { ecma: 2020, compress: { passes: 3, ecma: 2020, hoist_funs: true } } },
    },
    performance: { hints: false },
    devServer: {
      port: 3000,
      historyApiFallback: { rewrites: [{ from: /^\/admin/, to: '/admin.html' }] },
      // The API (npm run dev:server, or npm start) answers the calls; the dev server only serves the portal.
      proxy: [
        { context: ['/portal-registration', '/demo-assets', '/health', '/admin/api'], target: 'http://127.0.0.1:8080' },
      ],
    },
  }
  return [portal, backOffice(portal, production)]
}

/**
 * The back office (docs/back-office.md): a page of its own, admin.html, built by a compilation of
 * its own into the same directory, after the portal's (which empties it first). It shares no
 * chunk, runtime or export naming with the portal, so the shopper's start screen does not move.
 */
function backOffice(portal, production) {
  return {
    name: 'back-office',
    dependencies: ['portal'],
    mode: portal.mode,
    entry: { admin: './src/admin/index.tsx' },
    output: { ...portal.output, clean: false },
    resolve: portal.resolve,
    module: portal.module,
    devtool: portal.devtool,
    plugins: [
      new HtmlWebpackPlugin({ template: 'public/admin.html', filename: 'admin.html', scriptLoading: 'defer' }),
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
      }),
      ...(production ? precompressed() : []),
    ],
    optimization: {
      minimizer: ['...', new CssMinimizerPlugin()],
      minimizeOptions: portal.optimization.minimizeOptions,
    },
    performance: { hints: false },
  }
}

/**
 * The build's scripts and stylesheets, compressed once here at the highest levels (brotli 11,
 * gzip 9) beside each file, so the server sends them as they are instead of compressing each
 * request at a lower level (docs/performance.md). Only the hashed assets: env.js is replaced by
 * operators, and a stale compressed copy would outlive it.
 */
function precompressed() {
  const assets = /^assets\/.+\.(?:js|css)$/
  return [
    new CompressionPlugin({
      test: assets,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } },
      minRatio: 0.9,
    }),
    new CompressionPlugin({
      test: assets,
      filename: '[path][base].gz',
      algorithm: 'gzip',
      compressionOptions: { level: 9 },
      minRatio: 0.9,
    }),
  ]
}

/**
 * Writes chunk-groups.json: the scripts of each named lazy chunk (a screen, the session's restore,
 * a language's words), shared chunks included. The server names them in a later step's page as
 * preload hints, so they arrive with the main bundle instead of after it (docs/performance.md).
 */
class ChunkGroupsManifest {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack
    compiler.hooks.thisCompilation.tap('ChunkGroupsManifest', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'ChunkGroupsManifest', stage: Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE },
        () => {
          const groups = {}
          for (const [name, group] of compilation.namedChunkGroups) {
            if (group.isInitial()) continue
            groups[name] = group.chunks
              .filter((chunk) => !chunk.canBeInitial())
              .flatMap((chunk) => [...chunk.files].filter((file) => file.endsWith('.js')))
          }
          compilation.emitAsset('chunk-groups.json', new sources.RawSource(JSON.stringify(groups, null, 2)))
        },
      )
    })
  }
}

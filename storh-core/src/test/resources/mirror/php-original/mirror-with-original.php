<?php
// Writes the SQLite mirror held beside this script with the PHP original (storh 0.5.0).
// Usage: php mirror-with-original.php <storh-php-checkout> <root> <sqlite-file>
// <root> holds copies of the collections "pages" (DocStore) and "events" (SegmentedLog).
// The script adds two records to "pages" first: one whose data is a list and one with
// floats that PHP formats in its own way, so both shapes are in the table.
declare(strict_types=1);

[$script, $checkout, $root, $dbFile] = $argv;
spl_autoload_register(static function (string $class) use ($checkout): void {
    if (str_starts_with($class, 'Storh\\')) {
        $file = $checkout . '/src/' . str_replace('\\', '/', substr($class, 6)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

use Storh\DocStore;
use Storh\Schema;
use Storh\SegmentedLog;
use Storh\SqlMirror;

$pages = new DocStore($root, 'pages');
$pages->put(['a', 'b', ['nested' => true]], '01a229e5-5902-7000-8000-000000000001');
$pages->put(['slug' => 'floats', 'kind' => 'data', 'weight' => 0.1 + 0.2, 'third' => 1 / 3, 'tiny' => 0.00001,
    'list' => [1, 2.0, 'x'], 'empty' => []], '01a229e5-5902-7000-8000-000000000002');
$events = new SegmentedLog($root, 'events');

$schema = Schema::collection('pages')
    ->string('slug')->unique()
    ->string('kind')->index()
    ->string('title')
    ->float('weight')->range()
    ->bool('draft')->index();

$mirror = new SqlMirror(new PDO('sqlite:' . $dbFile), 'php_');
$mirror->collection($pages, 'pages', $schema);
$mirror->collection($events, 'events');
$mirror->install();
echo json_encode($mirror->push()), "\n";
echo json_encode($mirror->verify()), "\n";

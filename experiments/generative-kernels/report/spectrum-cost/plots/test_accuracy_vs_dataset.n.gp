# kexp plot; run `gnuplot test_accuracy_vs_dataset.n.gp` here to redraw test_accuracy_vs_dataset.n.svg
set terminal svg size 1000,664 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_dataset.n.svg'
set title 'test accuracy against n_train'
set xlabel 'n_train (training points)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'Each point: the cell with the highest test_accuracy over kernel.k.' at screen 0.01, screen 0.0542 left font ',12'
set label 101 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0211 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('200' 200, '400' 400, '800' 800, '1600' 1600)
set logscale x
$line0 << EOD
200 0.9733333333333333 0.9617863279495408 0.9848803387171258
400 0.9833333333333334 0.9717863279495409 0.9948803387171259
800 0.985 0.971771243444677 0.998228756555323
1600 0.9858333333333333 0.9763684860903329 0.9952981805763338
EOD
$line1 << EOD
200 0.9733333333333333 0.9617863279495408 0.9848803387171258
400 0.9833333333333334 0.9717863279495409 0.9948803387171259
800 0.985 0.971771243444677 0.998228756555323
1600 0.9858333333333333 0.9763684860903329 0.9952981805763338
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'spectrum · kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'spectrum · primal_ridge (primal)'

# kexp plot; run `gnuplot test_accuracy_vs_kernel.components.gp` here to redraw test_accuracy_vs_kernel.components.svg
set terminal svg size 1000,713 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.components.svg'
set title 'test accuracy against components'
set xlabel 'components (kernel.components)'
set ylabel 'test accuracy (dashed: validation accuracy)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'Each point: the cell with the highest validation_accuracy over solver.lambda.' at screen 0.01, screen 0.0813 left font ',12'
set label 101 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0505 left font ',12'
set label 102 'Dashed: validation_accuracy on the training part, bars ± one standard deviation over the folds.' at screen 0.01, screen 0.0196 left font ',12'
set key above maxcols 1 width 0 font ',12'
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '2' 2, '4' 4, '8' 8)
set logscale x
$line0 << EOD
1 0.986111111111111 0.9733817341806782 0.9988404880415439
2 0.986111111111111 0.9733817341806782 0.9988404880415439
4 0.9888888888888889 0.9792663844023951 0.9985113933753827
8 0.9916666666666667 0.9833333333333334 1
EOD
$line1 << EOD
1 0.9909722222222223 0.9873637830397871 0.9945806614046574
2 0.9888888888888889 0.9824203982621357 0.9953573795156422
4 0.9923611111111111 0.9850121002118363 0.999710122010386
8 0.9888888888888889 0.9820981054738456 0.9956796723039323
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'fisher information=empirical · kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' notitle
